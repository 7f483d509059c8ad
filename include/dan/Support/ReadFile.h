//===- ReadFile.h - Reading an input file with a size limit -----*- C++ -*-===//
//
// Every file a tool reads (its input, a side file, the target description
// a header names) is read whole, up to a limit: a regular file is refused
// by its size before it is read, anything else (stdin, a pipe, a device
// such as /dev/zero, a file that reports no size) as soon as it has given
// more than the limit.
//
//===----------------------------------------------------------------------===//

#ifndef DAN_SUPPORT_READFILE_H
#define DAN_SUPPORT_READFILE_H

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include <cstdint>
#include <memory>

namespace dan {

/// The tools' default limit (--max-input-size): 1 GiB.
constexpr uint64_t DefaultMaxInputSize = uint64_t(1) << 30;

/// Reads stream \p FD (named \p Name) to its end, stopping as soon as it
/// holds more than \p Limit bytes.
inline llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readStreamBounded(llvm::sys::fs::file_t FD, llvm::StringRef Name,
                  uint64_t Limit) {
  llvm::SmallString<0> Data;
  size_t Size = 0;
  for (;;) {
    const size_t Chunk = 1 << 16;
    Data.resize_for_overwrite(Size + Chunk);
    llvm::Expected<size_t> N = llvm::sys::fs::readNativeFile(
        FD, llvm::MutableArrayRef<char>(Data.data() + Size, Chunk));
    if (!N)
      return N.takeError();
    if (*N == 0)
      break;
    Size += *N;
    if (Size > Limit)
      return llvm::createStringError(
          std::errc::file_too_large,
          "input is larger than %llu bytes, the limit",
          (unsigned long long)Limit);
  }
  return llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(Data.data(), Size), Name);
}

/// Reads \p Path ("-" for stdin) whole, refusing more than \p Limit bytes.
inline llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readFileBounded(llvm::StringRef Path, uint64_t Limit) {
  namespace fs = llvm::sys::fs;
  if (Path == "-")
    return readStreamBounded(fs::getStdinHandle(), "<stdin>", Limit);
  fs::file_status St;
  if (std::error_code EC = fs::status(Path, St))
    return llvm::errorCodeToError(EC);
  // A file that reports no size (one of /proc's) may still hold bytes:
  // read it as a stream too.
  if (!fs::is_regular_file(St) || St.getSize() == 0) {
    llvm::Expected<fs::file_t> FD = fs::openNativeFileForRead(Path);
    if (!FD)
      return FD.takeError();
    llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> Buf =
        readStreamBounded(*FD, Path, Limit);
    fs::closeFile(*FD);
    return Buf;
  }
  if (St.getSize() > Limit)
    return llvm::createStringError(
        std::errc::file_too_large,
        "the file has %llu bytes, more than the limit of %llu",
        (unsigned long long)St.getSize(), (unsigned long long)Limit);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buf =
      llvm::MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return llvm::errorCodeToError(Buf.getError());
  return std::move(*Buf);
}

} // namespace dan

#endif // DAN_SUPPORT_READFILE_H
