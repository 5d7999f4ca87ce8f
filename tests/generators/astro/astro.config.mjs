// A small two-language blog: English at the root, German under /de/.
import { defineConfig } from "astro/config";
import sitemap from "@astrojs/sitemap";

export default defineConfig({
  site: "https://www.example.com",
  trailingSlash: "always",
  i18n: { defaultLocale: "en", locales: ["en", "de"], routing: { prefixDefaultLocale: false } },
  redirects: {
    "/2024/02/hello/": "/posts/hello-world/",
    "/posts/hello/": "/posts/hello-world/",
  },
  integrations: [sitemap({ i18n: { defaultLocale: "en", locales: { en: "en", de: "de" } } })],
});
