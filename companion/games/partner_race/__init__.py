"""The partner card race: four players in two teams race their pawns round a track with cards."""
