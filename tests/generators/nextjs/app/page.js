import { published } from "./posts";
export const metadata = { alternates: { canonical: "/", languages: { en: "/", de: "/de/" } } };
export default function Home() {
  return (<><h1>A blog about numbers</h1><ul>{published.map((p) => <li key={p.slug}><a href={`/posts/${p.slug}/`}>{p.title}</a></li>)}</ul></>);
}
