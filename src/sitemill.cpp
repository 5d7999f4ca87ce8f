// The umbrella header, compiled with the library and its warnings
// (cmake/Warnings.cmake), so that a public header it reaches which warns,
// or does not stand after the others, fails sitemill's build rather than an
// embedder's. It defines nothing.
#include "sitemill/sitemill.h"
