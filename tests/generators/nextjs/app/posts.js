// The posts; a draft is not built.
export const posts = [
  { slug: "420", title: "420", text: "Post number 420, named by its number." },
  { slug: "453", title: "453", text: "Post number 453." },
  { slug: "hello-world", title: "Hello, world", text: "The first post; it moved from /2024/02/hello/." },
  { slug: "unfinished", title: "Unfinished", text: "Not published: a draft.", draft: true },
];
export const published = posts.filter((p) => !p.draft);
