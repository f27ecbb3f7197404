"""Environments for learning programs: OpenSpiel, PettingZoo and Gymnasium."""
