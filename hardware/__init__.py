"""LED strips, buttons and buzzer behind small abstractions with real and recording backends."""
