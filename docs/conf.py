# Sphinx configuration of the softfit documentation (built by scripts/docs.sh).
# Plain reStructuredText, no extension that needs the network; every warning is an
# error there (-W), and nitpicky mode reports any internal reference that does not
# resolve.

project = "softfit"
author = "the softfit developers"
copyright = "the softfit developers"

extensions = []
nitpicky = True
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
root_doc = "index"
highlight_language = "none"
pygments_style = "sphinx"

# Debian's furo (package furo) when it is installed, Sphinx's built-in theme otherwise.
try:
    import furo  # noqa: F401

    html_theme = "furo"
except ImportError:
    html_theme = "alabaster"

html_title = "softfit"
html_static_path = []
html_show_sourcelink = False
