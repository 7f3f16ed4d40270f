"""simgin as a reinforcement-learning environment (issue 36): every rule set behind the standard APIs.

- :func:`aec_env`: a PettingZoo AEC environment for two agents;
- :func:`single_agent_env`: a Gymnasium environment against any simgin player;
- :func:`batched_env`: many tables stepped at once in compiled code, observations and masks as arrays;
- :func:`vector_env`: the same tables behind Gymnasium's ``VectorEnv`` API.

The game under all three is :class:`simgin.env.table.Table` over :mod:`simgin.kernels.env`; docs/ENV.md
documents the actions, the observation feature by feature, the rewards and the seeds. PettingZoo and
Gymnasium come with the optional extra ``rl`` (``pip install 'simgin[rl]'``); the batched environment and
the table need neither.
"""

from __future__ import annotations

from typing import Any

from simgin.env.table import ACTION_COUNT, OBSERVATION_SIZE, IllegalAction, PlayerFailed, Table, action_name


def aec_env(rules: Any = None, **options: Any) -> Any:
    """A PettingZoo AEC environment of two-player Gin Rummy under ``rules`` (a :class:`simgin.Rules` or a
    preset name); ``options`` as :class:`simgin.env.aec.GinRummyEnv` takes them."""
    from simgin.env.aec import GinRummyEnv

    return GinRummyEnv(rules=rules, **options)


def single_agent_env(opponent: Any = "simple", rules: Any = None, **options: Any) -> Any:
    """A Gymnasium environment: the agent plays one seat against ``opponent`` (any simgin player spec);
    ``options`` as :class:`simgin.env.single.GinRummySingleEnv` takes them."""
    from simgin.env.single import GinRummySingleEnv

    return GinRummySingleEnv(opponent=opponent, rules=rules, **options)


def batched_env(tables: int = 256, opponent: Any = "simple", rules: Any = None, **options: Any) -> Any:
    """``tables`` tables stepped together in compiled code (:class:`simgin.env.batched.BatchedEnv`)."""
    from simgin.env.batched import BatchedEnv

    return BatchedEnv(tables=tables, opponent=opponent, rules=rules, **options)


def vector_env(num_envs: int = 256, opponent: Any = "simple", rules: Any = None, **options: Any) -> Any:
    """The batched tables as a Gymnasium ``VectorEnv`` (:class:`simgin.env.vector.GinRummyVectorEnv`)."""
    from simgin.env.vector import GinRummyVectorEnv

    return GinRummyVectorEnv(num_envs=num_envs, opponent=opponent, rules=rules, **options)


__all__ = [
    "ACTION_COUNT",
    "OBSERVATION_SIZE",
    "IllegalAction",
    "PlayerFailed",
    "Table",
    "action_name",
    "aec_env",
    "batched_env",
    "single_agent_env",
    "vector_env",
]
