"""Writing files so that nothing is lost: atomic replacement, in-place writes of files with other hard links
(and their recovery after a crash), the first save keeping NAME.orig.xml, and the lock that keeps two
writers of one log apart. Imports no package of annotator."""
