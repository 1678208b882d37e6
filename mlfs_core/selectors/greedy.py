"""Information-theoretic greedy filters of paper 001 (being written; see issue 3)."""
