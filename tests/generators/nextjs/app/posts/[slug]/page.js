import { published } from "../../posts";
export const dynamicParams = false;
export function generateStaticParams() { return published.map((p) => ({ slug: p.slug })); }
export async function generateMetadata({ params }) {
  const { slug } = await params;
  return { title: published.find((p) => p.slug === slug).title, alternates: { canonical: `/posts/${slug}/` } };
}
export default async function Post({ params }) {
  const { slug } = await params;
  const post = published.find((p) => p.slug === slug);
  return <article><h1>{post.title}</h1><p>{post.text}</p></article>;
}
