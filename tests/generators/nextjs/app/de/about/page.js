export const metadata = { title: "Über uns", alternates: { canonical: "/de/about/", languages: { en: "/about/", de: "/de/about/" } } };
export default function About() { return <p>Wer hier schreibt.</p>; }
