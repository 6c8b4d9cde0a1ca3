"""DL Hardware Desktop: choose and assemble hardware for deep learning."""

__version__ = "0.1.0"
APP_NAME = "DL Hardware Desktop"
APP_ID = "dlhw_desktop"
ORG_NAME = "dlhw"
