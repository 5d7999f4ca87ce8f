// A small two-language blog, exported as static files (out/).
export default { output: "export", trailingSlash: true };
