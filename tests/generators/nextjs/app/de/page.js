export const metadata = { title: "Beispiel", alternates: { canonical: "/de/", languages: { en: "/", de: "/de/" } } };
export default function Home() { return <h1>Ein Blog über Zahlen</h1>; }
