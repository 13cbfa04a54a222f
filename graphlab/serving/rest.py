"""TF Serving's REST API on aiohttp (a maintained HTTP server library; no HTTP code of our own).

  GET  /v1/models/NAME[/versions/V]             version status
  GET  /v1/models/NAME[/versions/V]/metadata    signature defs
  POST /v1/models/NAME[/versions/V]:predict     {"instances": [...]} or {"inputs": ...}, "signature_name"
Errors are {"error": "..."} with TF Serving's HTTP status for the error's code (a client's mistake is a 400,
an error of our own a 500 with the same form, never a bare text page). Sessions run on one worker thread and
request bodies are parsed on others, so neither a slow prediction nor a large body blocks status requests; a
body that stalls longer than the request timeout ends its connection; the poller loads new versions on its
own thread, so requests are served meanwhile. A request holds its version until it ends (models.Version)."""
import asyncio
import concurrent.futures
import json
import re

from aiohttp import web

from graphlab.serving import json_tensor
from graphlab.serving.status import ServingError, from_exception, invalid

_PREDICT = re.compile(r"(?i)^/v1/models/([^/:]+)(?:/versions/(\d+))?:(classify|regress|predict)$")
_STATUS = re.compile(r"(?i)^/v1/models(?:/([^/:]+))?(?:/versions/(\d+))?(/metadata)?$")


def _json(obj, status=200):
    text = obj if isinstance(obj, str) else json.dumps(obj, indent=1)
    return web.Response(text=text, status=status, content_type="application/json")


def _error(err):
    return _json({"error": err.message}, err.http_status)


def _version(text):
    if text is None:
        return None
    try:
        return int(text)
    except ValueError:
        raise invalid("Failed to convert version: ", text, " to numeric.") from None


class RestServer:
    """The aiohttp application for one ServedModel, with the version poller as a background task."""

    def __init__(self, model, poll_seconds=1.0, max_body_bytes=64 << 20, timeout_seconds=30.0):
        self.model = model
        self.poll_seconds = poll_seconds
        self.max_body_bytes = max_body_bytes
        self.timeout_seconds = timeout_seconds
        self.executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphlab-serve")
        self.parsers = concurrent.futures.ThreadPoolExecutor(max_workers=2, thread_name_prefix="graphlab-parse")
        self.loader = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="graphlab-poll")
        self.app = web.Application(client_max_size=max_body_bytes, middlewares=[self._errors])
        self.app.router.add_route("*", "/{tail:.*}", self.dispatch)
        self.app.on_startup.append(self._start_poller)
        self.app.on_cleanup.append(self._stop)

    async def _start_poller(self, app):
        self._poller = asyncio.get_running_loop().create_task(self._poll_forever())

    async def _poll_forever(self):
        loop = asyncio.get_running_loop()
        while True:
            try:
                await loop.run_in_executor(self.loader, self.model.poll)
            except Exception as e:  # never let the poller die
                self.model.log("version poll failed: %s" % e)
            await asyncio.sleep(self.poll_seconds)

    async def _stop(self, app):
        self._poller.cancel()
        await asyncio.get_running_loop().run_in_executor(self.executor, self.model.close)
        for pool in (self.executor, self.parsers, self.loader):
            pool.shutdown(wait=False)

    @web.middleware
    async def _errors(self, request, handler):
        try:
            return await handler(request)
        except ServingError as e:
            response = _error(e)
            if getattr(e, "close_connection", False):
                response.force_close()
            return response
        except web.HTTPRequestEntityTooLarge:
            return _error(ServingError("INVALID_ARGUMENT", "Request body of more than %d bytes refused (the "
                                       "server's --rest_api_max_body_mb)" % self.max_body_bytes))
        except web.HTTPException:
            raise
        except asyncio.CancelledError:
            raise
        except Exception as e:  # a fault of ours: still TF Serving's JSON form, and logged
            self.model.log("request %s %s failed: %s: %s" % (request.method, request.path, type(e).__name__, e))
            return _error(from_exception(e))

    async def _body(self, request):
        """The request body, or a 400 when it does not arrive within the request timeout (the connection is
        then closed: a client that stops mid-body holds no connection or version)."""
        try:
            return await asyncio.wait_for(request.read(), self.timeout_seconds)
        except asyncio.TimeoutError:
            err = ServingError("INVALID_ARGUMENT", "Request body not received within %g s (the server's "
                               "--rest_api_timeout_in_ms)" % self.timeout_seconds)
            err.close_connection = True
            raise err from None

    async def dispatch(self, request):
        path = request.path
        if request.method == "POST":
            m = _PREDICT.match(path)
            if m:
                name, version, method = m.group(1), _version(m.group(2)), m.group(3)
                body = await self._body(request)
                if method != "predict":
                    raise ServingError("UNIMPLEMENTED", "graphlab serve implements :predict, not :%s" % method)
                loop = asyncio.get_running_loop()
                served = self.model.version_for(name, version)  # held until this request ends
                try:
                    sig, form, raw = await loop.run_in_executor(self.parsers, json_tensor.parse_request, body)
                    del body
                    text = await loop.run_in_executor(self.executor, served.predict, sig, form, raw)
                except ServingError:
                    raise
                except Exception as e:
                    raise from_exception(e) from None
                finally:
                    served.release()
                return _json(text)
        elif request.method == "GET":
            m = _STATUS.match(path)
            if m:
                name, version, metadata = m.group(1), _version(m.group(2)), m.group(3)
                if not name:
                    raise invalid("Missing model name in request.")
                if metadata:
                    served = self.model.version_for(name, version)
                    try:
                        return _json(served.metadata(name))
                    finally:
                        served.release()
                return _json(self.model.status(name, version))
        if not path.lower().startswith("/v1/"):
            return _json({"error": "Not found: %s" % path}, 404)
        raise invalid("Malformed request: ", request.method, " ", path)


def run(model, port, host="127.0.0.1", poll_seconds=1.0, max_body_bytes=64 << 20, print_fn=print,
        timeout_seconds=30.0):
    server = RestServer(model, poll_seconds, max_body_bytes, timeout_seconds)
    print_fn("Exporting HTTP/REST API at:%s:%d ..." % (host, port))
    web.run_app(server.app, host=host, port=port, print=None, handle_signals=True, access_log=None)
