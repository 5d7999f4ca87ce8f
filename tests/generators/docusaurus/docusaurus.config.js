// A small two-language blog: English at the root, German under /de/.
module.exports = {
  title: "Example",
  url: "https://www.example.com",
  baseUrl: "/",
  trailingSlash: true,
  onBrokenLinks: "throw",
  i18n: { defaultLocale: "en", locales: ["en", "de"] },
  presets: [
    [
      "classic",
      {
        docs: false,
        // Posts with draft: true are left out of production builds.
        blog: {
          routeBasePath: "blog",
          showReadingTime: false,
          feedOptions: { type: null },
          onUntruncatedBlogPosts: "ignore",
        },
        theme: {},
      },
    ],
  ],
  plugins: [
    [
      "@docusaurus/plugin-client-redirects",
      {
        redirects: [
          { from: "/2024/02/hello", to: "/blog/hello-world/" },
          { from: "/blog/hello", to: "/blog/hello-world/" },
        ],
      },
    ],
  ],
  themeConfig: { navbar: { title: "Example", items: [] } },
};
