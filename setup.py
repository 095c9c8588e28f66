"""Packaging beyond what pyproject.toml can say: the themes and resources folders of the source tree
travel inside the wheel as ``bme_desktop/_shipped/{themes,resources}`` (found at run time by
``bme_desktop.core.paths.shipped_root``). Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

SHIPPED = {"bme_desktop._shipped.themes": "themes", "bme_desktop._shipped.resources": "resources"}

setup(
    packages=[*find_packages(include=["bme_desktop", "bme_desktop.*"]), *SHIPPED],
    package_dir={"": ".", **SHIPPED},
    package_data={"bme_desktop": ["py.typed"],
                  **{name: ["**/*"] for name in SHIPPED}},
    exclude_package_data={name: ["**/node_modules/**", "**/test/**", "**/*.ts"] for name in SHIPPED},
)
