// The corpus pages the agent benchmarks run on, one per kind of documentation and article.
export const PAGES = [
  "python-docs/python3.11-doc/html/tutorial/introduction.html",
  "python-docs/python3.11-doc/html/library/stdtypes.html",
  "git-docs/git-doc/user-manual.html",
  "sphinx-docs/sphinx-doc/html/index.html",
  "node-docs/nodejs/api/fs.html",
  "readability/bbc-1/index.html",
  "readability/wikipedia/index.html",
];
