"""Camera sources, ArUco marker detection, board homography and stabilisation."""
