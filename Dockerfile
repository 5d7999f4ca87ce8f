# sitemill in a container: docker build -t sitemill .
#   docker run --rm -v "$PWD:/site" sitemill generate     (reads ./sitemill.toml)
# The build stage runs README.md's Install commands, one RUN each, in order
# (tests/recipes/run.sh checks that they match); the runtime stage installs the
# .deb they make, so apt-get brings exactly the libraries the binary links.
FROM debian:bookworm AS build
WORKDIR /src
COPY . .
RUN scripts/install-deps.sh
RUN scripts/build.sh
RUN cmake --install build
RUN (cd build && cpack -G DEB)

FROM debian:bookworm-slim
WORKDIR /tmp/sitemill
COPY --from=build /src/build/sitemill_*.deb ./build/
# The package's Depends are the shared libraries the binary links (tzdata comes
# with libdate-tz3); ca-certificates, which https fetches need, is only a
# Recommends of libcurl4, so it is named.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ./build/sitemill_*.deb ca-certificates \
 && rm -rf /var/lib/apt/lists/* /tmp/sitemill \
 && sitemill -V
WORKDIR /site
ENTRYPOINT ["sitemill"]
CMD ["--help"]
