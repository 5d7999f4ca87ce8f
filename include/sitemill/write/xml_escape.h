// sitemill: the XML escaping the writers use, which lives on the ground
// (sitemill/xml_escape.h) since the parser shares it; this path stays for
// code that includes it from here.
#ifndef SITEMILL_WRITE_XML_ESCAPE_H
#define SITEMILL_WRITE_XML_ESCAPE_H

#include "sitemill/xml_escape.h"

#endif  // SITEMILL_WRITE_XML_ESCAPE_H
