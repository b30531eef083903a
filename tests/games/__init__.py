"""Tests of the shipped rulesets.

A test of a numbered rule is named after the rule's id as the ruleset's docstring writes
it: ``test_R4_...`` (werewolf R4), ``test_X1_...`` (werewolf extension X1),
``test_M12_...`` (missions M12), ``test_O3_...`` (One Night O3).
"""
