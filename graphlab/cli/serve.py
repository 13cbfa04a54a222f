"""graphlab serve --model_name NAME --model_base_path DIR --rest_api_port N

Serve the SavedModels under DIR/<version>/ over TF Serving's REST API (as tensorflow_model_server):
GET /v1/models/NAME (version status), GET /v1/models/NAME/metadata (signatures), POST
/v1/models/NAME:predict ({"instances": ...} or {"inputs": ...}), each also under /versions/V. The highest
numeric version is served; a new one copied in while running is picked up. A model whose graph calls
Python (py_func) is refused, with the reason. Listens on 127.0.0.1 unless --rest_api_host says otherwise.
Stop it with Ctrl-C."""
import os
import sys

from graphlab.cli.common import CLIError


def add_arguments(p):
    p.add_argument("--model_name", required=True, help="the NAME in /v1/models/NAME")
    p.add_argument("--model_base_path", required=True, help="directory holding numbered SavedModel versions")
    p.add_argument("--rest_api_port", type=int, default=8501, help="HTTP port (default %(default)s)")
    p.add_argument("--rest_api_host", default="127.0.0.1", help="address to listen on (default %(default)s)")
    p.add_argument("--file_system_poll_wait_seconds", type=float, default=1.0,
                   help="how often to look for new versions (default %(default)s)")
    p.add_argument("--rest_api_max_body_mb", type=float, default=64,
                   help="refuse request bodies larger than this (default %(default)s MiB)")
    p.add_argument("--rest_api_timeout_in_ms", type=int, default=30000,
                   help="a request body not received within this time ends its connection (default %(default)s)")


def run(args):
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        raise CLIError("serving needs the aiohttp package: pip install 'graphlab[serve]'") from None
    from graphlab.serving import rest
    from graphlab.serving.models import ServedModel
    if not os.path.isdir(args.model_base_path):
        raise CLIError("%s: no such directory. --model_base_path is the directory that holds numbered "
                       "version directories (1/, 2/, ...), each a SavedModel." % args.model_base_path)

    def log(text):
        print(text, file=sys.stderr, flush=True)

    model = ServedModel(args.model_name, args.model_base_path, log=log)
    model.poll()
    if model.current is None:
        versions = model.numeric_versions()
        if versions:
            state = model.states.get(versions[-1])
            log("Version %d of %s did not load%s; waiting for a loadable version" % (
                versions[-1], args.model_name, (": " + state[2]) if state and state[2] else ""))
    rest.run(model, args.rest_api_port, args.rest_api_host, args.file_system_poll_wait_seconds,
             int(args.rest_api_max_body_mb * (1 << 20)), print_fn=log,
             timeout_seconds=args.rest_api_timeout_in_ms / 1000.0)
    return 0
