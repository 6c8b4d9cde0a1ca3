"""The Cluster tab: a plan of N nodes of the current build (the shell hands it the build)."""
