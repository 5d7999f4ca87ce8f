export const metadata = { title: "About", alternates: { canonical: "/about/", languages: { en: "/about/", de: "/de/about/" } } };
export default function About() { return <p>Who writes here.</p>; }
