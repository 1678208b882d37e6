"""Paper 001 (the ATR paper): its statements under several evaluations."""
