"""Paper 000 (Spolaôr & Tsoumakas): its published tables and its claims."""
