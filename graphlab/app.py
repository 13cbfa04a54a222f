"""``tf.app``: ``tf.app.run()`` and ``tf.app.flags`` as TF1 scripts use them (``FLAGS = tf.app.flags.FLAGS``;
``DEFINE_string`` and friends; ``tf.app.run(main)`` parses the command line, then calls ``main(argv)``)."""
import argparse
import sys


class _Flags:
    """The FLAGS object: attributes defined by DEFINE_*; the command line is parsed on first read."""

    def __init__(self):
        object.__setattr__(self, "_parser", argparse.ArgumentParser(add_help=True))
        object.__setattr__(self, "_values", None)
        object.__setattr__(self, "_rest", [])
        object.__setattr__(self, "_booleans", set())

    def _define(self, kind, name, default, help):  # noqa: A002  (TF's argument name)
        if kind is bool:   # --name, --noname, or --name=true/false (never takes the next word)
            self._parser.add_argument("--" + name, dest=name, default=default, action="store_true", help=help)
            self._parser.add_argument("--no" + name, dest=name, action="store_false")
            self._booleans.add(name)
        elif kind is list:
            self._parser.add_argument("--" + name, dest=name, default=default,
                                      type=lambda s: s.split(","), help=help)
        else:
            self._parser.add_argument("--" + name, dest=name, default=default, type=kind, help=help)
        object.__setattr__(self, "_values", None)

    def _parse(self, argv):
        args = []
        for arg in argv[1:]:
            name, eq, value = arg[2:].partition("=")
            if arg.startswith("--") and eq and name in self._booleans:
                arg = "--" + ("" if value.lower() in ("1", "true", "yes") else "no") + name
            args.append(arg)
        values, rest = self._parser.parse_known_args(args)
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_rest", [argv[0]] + rest)
        return self._rest

    def _parsed(self):
        """The flag values, parsing the command line first if tf.app.run() has not (in a notebook the
        kernel's own arguments are not ours, so only defaults apply there)."""
        if self._values is None:
            in_notebook = "ipykernel" in sys.modules
            self._parse([""] if in_notebook else sys.argv)
        return self._values

    def __getattr__(self, name):
        try:
            return getattr(self._parsed(), name)
        except AttributeError:
            raise AttributeError("Unknown flag %s: define it with tf.app.flags.DEFINE_*" % name) from None

    def __setattr__(self, name, value):
        setattr(self._parsed(), name, value)


class _FlagsModule:
    """``tf.app.flags``."""

    def __init__(self):
        self.FLAGS = _Flags()

    def DEFINE_string(self, name, default, help):  # noqa: N802,A002
        self.FLAGS._define(str, name, default, help)

    def DEFINE_integer(self, name, default, help):  # noqa: N802,A002
        self.FLAGS._define(int, name, default, help)

    def DEFINE_float(self, name, default, help):  # noqa: N802,A002
        self.FLAGS._define(float, name, default, help)

    def DEFINE_boolean(self, name, default, help):  # noqa: N802,A002
        self.FLAGS._define(bool, name, default, help)

    DEFINE_bool = DEFINE_boolean

    def DEFINE_list(self, name, default, help):  # noqa: N802,A002
        self.FLAGS._define(list, name, default, help)


flags = _FlagsModule()


def run(main=None, argv=None):
    """Parse flags from ``argv`` (default sys.argv), call ``main(remaining argv)`` and exit with its result."""
    rest = flags.FLAGS._parse(argv if argv is not None else sys.argv)
    if main is None:
        main = sys.modules["__main__"].main
    sys.exit(main(rest))
