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
# The package's Depends are the shared libraries only: tzdata (--timezone reads
# /usr/share/zoneinfo) and ca-certificates (https fetches) come in by name.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      ./build/sitemill_*.deb tzdata ca-certificates \
 && rm -rf /var/lib/apt/lists/* /tmp/sitemill \
 && sitemill -V
WORKDIR /site
ENTRYPOINT ["sitemill"]
CMD ["--help"]
