/** next-sitemap reads the build and writes out/sitemap.xml. */
module.exports = {
  siteUrl: "https://www.example.com",
  outDir: "out",
  generateRobotsTxt: false,
  generateIndexSitemap: false,
};
