"""The Flask panel players open on their phones."""
