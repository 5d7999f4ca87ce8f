// A redirect as static exports write one by hand: next.config's redirects
// need a server, and redirect() (app/posts/hello) leaves no meta refresh.
// React hoists the <meta> into <head>.
export default function Moved() {
  return <><meta httpEquiv="refresh" content="0; url=/about/" /><p><a href="/about/">Moved</a></p></>;
}
