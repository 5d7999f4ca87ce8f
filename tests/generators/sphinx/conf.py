# A small Sphinx project, built twice: English into the web root, German
# (-D language=de, from locales/de) into de/ below it. sphinx-sitemap writes
# each build's sitemap.xml; sphinx-reredirects writes the redirect pages.
project = "Example"
author = "Example"
extensions = ["sphinx_sitemap", "sphinx_reredirects"]
html_baseurl = "https://www.example.com/"
sitemap_url_scheme = "{link}"
# One language per build: no alternates between the builds.
sitemap_locales = [None]
locale_dirs = ["locales"]
# Unfinished pages stay out of the build, Sphinx's way of keeping drafts.
exclude_patterns = ["_build", "drafts"]
# Copied as is to the web root: the search engine's verification file.
html_extra_path = ["_extra"]
redirects = {
    "old-about": "about.html",
    "posts/0420": "420.html",
}
