export const metadata = { metadataBase: new URL("https://www.example.com"), title: { template: "%s | Example", default: "Example" } };

export default function RootLayout({ children }) {
  return (
    <html lang="en">
      <body><nav><a href="/">Example</a></nav><main>{children}</main></body>
    </html>
  );
}
