#include "sitemill/version.h"

namespace sitemill {

// Compiled into the library, so it says the library's version whatever
// headers a program was built with.
const char* version() noexcept { return SITEMILL_VERSION_STRING; }

}  // namespace sitemill
