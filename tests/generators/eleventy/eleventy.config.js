// A small two-language blog: English at the root, German under /de/.
import sitemap from "@quasibit/eleventy-plugin-sitemap";

export default function (eleventyConfig) {
  eleventyConfig.addPlugin(sitemap, { sitemap: { hostname: "https://www.example.com" } });
  eleventyConfig.addPassthroughCopy("google1234567890abcdef.html");
  eleventyConfig.ignores.add("node_modules/**");
  // Eleventy's drafts recipe: a page with draft: true is not built.
  eleventyConfig.addPreprocessor("drafts", "*", (data) => {
    if (data.draft) return false;
  });
  // HTML files are copied, not rendered: the verification file stays as it is.
  return { templateFormats: ["md", "njk"] };
}
