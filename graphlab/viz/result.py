"""A finished drawing: the DOT text (always available), SVG/PNG made by Graphviz's ``dot`` on demand, the
notebook display hooks, and a plain-text summary of what was collapsed, grouped, hidden and highlighted."""
import os
import shutil
import subprocess

INSTALL_HINT = ("install Graphviz with `apt-get install graphviz` (Debian/Ubuntu), `brew install graphviz` "
                "(macOS) or `conda install graphviz`")


class GraphvizNotFoundError(RuntimeError):
    """Graphviz's ``dot`` program is not installed; the DOT text is still usable."""


def dot_executable():
    return shutil.which("dot")


def run_dot(dot_text, fmt):
    """Lay out ``dot_text`` with Graphviz and return the bytes of ``fmt`` ("svg", "png")."""
    exe = dot_executable()
    if exe is None:
        raise GraphvizNotFoundError(
            "Cannot draw the graph: Graphviz's `dot` executable was not found on PATH. To see pictures, "
            "%s. The DOT text is still available as result.dot, and result.save('graph.dot') writes it." %
            INSTALL_HINT)
    proc = subprocess.run([exe, "-T" + fmt], input=dot_text.encode("utf-8"), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, check=False)
    if proc.returncode != 0:
        raise RuntimeError("Graphviz `dot -T%s` failed (exit %d): %s" % (
            fmt, proc.returncode, proc.stderr.decode("utf-8", "replace").strip()[:500]))
    return proc.stdout


class RenderResult:
    """What ``graphlab.viz.render`` returns. ``.dot`` is the text; ``.svg()`` lays it out (cached)."""

    def __init__(self, dot, summary, info, fit_to=None):
        self.dot = dot
        self.fit_to = fit_to            # px: a wider SVG gets width/height scaled down to it
        self.summary = summary          # human-readable lines, also drawn as the caption
        self.info = info                # structured: counts, collapsed scopes, series, hidden, overlay
        self._svg = None

    # structured shortcuts used by tests and the extension
    @property
    def collapsed(self):
        return self.info["collapsed"]

    @property
    def node_count(self):
        return self.info["boxes"]

    def svg(self):
        """The drawing as SVG text (runs ``dot`` once, then cached)."""
        if self._svg is None:
            self._svg = run_dot(self.dot, "svg").decode("utf-8")
            if self.fit_to:
                from graphlab.viz.fit import scaled_svg
                self._svg = scaled_svg(self._svg, self.fit_to)
        return self._svg

    def png(self):
        return run_dot(self.dot, "png")

    def save(self, path):
        """Write ``.svg``, ``.png`` or ``.dot`` (chosen by the file extension); returns the path."""
        ext = os.path.splitext(str(path))[1].lower()
        if ext in (".dot", ".gv"):
            data = self.dot.encode("utf-8")
        elif ext == ".svg":
            data = self.svg().encode("utf-8")
        elif ext == ".png":
            data = self.png()
        else:
            raise ValueError("Cannot save a graph drawing as %r: use a .svg, .png or .dot file name." % str(path))
        with open(path, "wb") as f:
            f.write(data)
        return path

    # --- notebook display (duck-typed: no IPython import) ----------------------------------------------
    def _repr_svg_(self):
        try:
            return self.svg()
        except GraphvizNotFoundError:
            return None

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.text()}
        try:
            bundle["image/svg+xml"] = self.svg()
        except GraphvizNotFoundError as e:
            bundle["text/plain"] = "%s\n%s" % (bundle["text/plain"], e)
        if include:
            bundle = {k: v for k, v in bundle.items() if k in include}
        if exclude:
            bundle = {k: v for k, v in bundle.items() if k not in exclude}
        return bundle

    def text(self):
        return "\n".join(self.summary)

    def __repr__(self):
        return "<graphlab.viz.RenderResult: %s>" % "; ".join(self.summary)
