//===- Diagnostic.cpp - Errors located at nodes of a graph ----------------===//

#include "dan/IR/Diagnostic.h"
#include "llvm/Support/raw_ostream.h"

namespace dan {

char DiagError::ID = 0;

void DiagError::log(llvm::raw_ostream &OS) const {
  bool First = true;
  for (const Diagnostic &D : Diags) {
    if (!First)
      OS << '\n';
    First = false;
    if (D.Kind == llvm::SourceMgr::DK_Note)
      OS << "note: ";
    OS << D.Msg;
  }
}

} // namespace dan
