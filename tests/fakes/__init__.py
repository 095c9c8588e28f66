"""Test doubles that speak real wire protocols over loopback sockets."""
