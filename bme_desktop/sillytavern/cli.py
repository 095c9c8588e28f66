"""``bme-desktop sillytavern install [--st-dir DIR] [--user NAME] [--no-pair]`` and
``bme-desktop sillytavern package [-o FILE]``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from .install import (
    InstallError,
    SillyTavern,
    candidate_folders,
    check_sillytavern,
    find_sillytavern,
    find_users,
    install_extension,
)
from .package import package_extension

DEFAULT_ZIP = "bme-desktop-sillytavern-extension.zip"


def add_commands(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    add_common: Callable[[argparse.ArgumentParser], None],
) -> None:
    st = sub.add_parser("sillytavern", help="install the SillyTavern extension, paired with the bridge")
    add_common(st)
    actions = st.add_subparsers(dest="st_command", required=True)
    install = actions.add_parser(
        "install",
        help="install (or update) the extension into a SillyTavern folder and pair it: no token to paste",
    )
    add_common(install)
    install.add_argument(
        "--st-dir", metavar="DIR", help="the SillyTavern folder (default: look in the usual places)"
    )
    install.add_argument("--user", help="the SillyTavern user (default: default-user, or the only one)")
    install.add_argument(
        "--no-pair",
        action="store_true",
        help="do not write the bridge's address and token beside the extension",
    )
    package = actions.add_parser("package", help="write the extension as a zip whose root is the extension")
    add_common(package)
    package.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        default=DEFAULT_ZIP,
        help=f"the zip to write (default: {DEFAULT_ZIP})",
    )


def _fail(message: str) -> int:
    print(f"bme-desktop sillytavern: {message}", file=sys.stderr)
    return 2


def _choose_sillytavern(given: str | None) -> SillyTavern:
    if given:
        return check_sillytavern(Path(given).expanduser())
    found = find_sillytavern()
    if len(found) == 1:
        return found[0]
    if not found:
        looked = ", ".join(str(p) for p in candidate_folders())
        raise InstallError(f"no SillyTavern folder found (looked in {looked}); name it with --st-dir")
    listed = ", ".join(f"{s.root} ({s.version})" for s in found)
    raise InstallError(f"several SillyTavern folders found: {listed}; choose one with --st-dir")


def _choose_user(st_root: Path, given: str | None) -> str:
    users = find_users(st_root)
    if given is not None:
        if given not in users:
            raise InstallError(
                f"{st_root} has no SillyTavern user {given!r} (users: {', '.join(users) or 'none'})"
            )
        return given
    if "default-user" in users:
        return "default-user"
    if len(users) == 1:
        return users[0]
    if not users:
        raise InstallError(f"{st_root} has no user folder under data/: start SillyTavern once, then install")
    raise InstallError(f"{st_root} has several users ({', '.join(users)}); choose one with --user")


def bridge_connection(data_dir: Path) -> tuple[str, str]:
    """The bridge's URL (the running one's, else the configured port on loopback) and its token
    (created if there is none yet, as ``bme-desktop token`` does)."""
    from ..bridge.serve import running_bridge
    from ..bridge.tokens import TokenStore
    from ..core.settings import load_settings

    running = running_bridge(data_dir)
    if running is not None and isinstance(running.get("url"), str):
        url = str(running["url"])
    else:
        bridge = load_settings(data_dir).bridge
        host = "127.0.0.1" if bridge.host in ("0.0.0.0", "::", "") else bridge.host
        url = f"http://{host}:{bridge.port}"
    return url, TokenStore(data_dir).get_or_create().value


def run(args: argparse.Namespace, data_dir: Path) -> int:
    from ..bridge.tokens import TokenError
    from ..core.settings import SettingsError

    try:
        if args.st_command == "package":
            path = package_extension(Path(args.output).expanduser().resolve())
            print(path)
            return 0
        st = _choose_sillytavern(args.st_dir)
        user = _choose_user(st.root, args.user)
        connection = None if args.no_pair else bridge_connection(data_dir)
        target = install_extension(st.root, user, connection=connection)
    except (InstallError, TokenError, SettingsError) as exc:
        return _fail(str(exc))
    print(f"Installed BME Desktop Memory into {target} (SillyTavern {st.version}, user {user}).")
    if connection is not None:
        print(
            f"Paired with the bridge at {connection[0]}: reload SillyTavern and the extension connects by "
            "itself (Extensions → BME Desktop Memory)."
        )
    else:
        print("Not paired: paste the output of `bme-desktop token` in Extensions → BME Desktop Memory.")
    return 0
