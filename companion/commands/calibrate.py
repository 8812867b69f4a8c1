"""`companion calibrate`: placeholder until its issue lands (owner replaces this file)."""


def add_parser(sub) -> None:
    p = sub.add_parser("calibrate", help="(not built yet)")
    p.set_defaults(handler=lambda args: print("companion calibrate is not built yet") or 1)
