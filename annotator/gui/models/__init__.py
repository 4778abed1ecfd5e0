"""Qt item models over the core's views: they translate core events, they copy no data."""
