// Messages of the graph libraries echo strings from files (AIR node names, magic, paths,
// attribute names): a crafted file must not put line breaks or terminal escape sequences into
// a log line or an error string. EscapeControl renders control bytes visibly.
#ifndef GE_TWIN_GRAPH_SRC_ESCAPE_H_
#define GE_TWIN_GRAPH_SRC_ESCAPE_H_

#include <string>

#include "export.h"

namespace ge_twin {

// `text` with every control byte (0x00-0x1f, 0x7f) written as \n, \r, \t or \xNN; other
// bytes (also backslashes and UTF-8) unchanged, so escaping twice changes nothing more.
GE_TWIN_INTERNAL_API std::string EscapeControl(const std::string &text);

}  // namespace ge_twin

#endif  // GE_TWIN_GRAPH_SRC_ESCAPE_H_
