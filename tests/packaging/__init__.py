"""The standalone build (packaging/) and the desktop integration files, checked as a user would install them."""
