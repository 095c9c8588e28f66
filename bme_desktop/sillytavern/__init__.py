"""SillyTavern: install the companion extension into a SillyTavern folder, pair it with the bridge,
and package it as a zip for SillyTavern's "install from URL". Qt-free: the CLI and the app share it."""
