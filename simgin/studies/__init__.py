"""Variant studies: questions about rule sets (RULES.md V1-V14) answered with tested numbers."""
