"""Writing outputs safely: the guard that keeps a command from replacing its inputs, and staging folders that make a many-file output all or nothing."""
