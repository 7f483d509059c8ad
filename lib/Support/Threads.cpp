//===- Threads.cpp - A batch's helper threads on other CPUs ---------------===//

#include "dan/Support/Threads.h"

#ifdef __linux__
#include <sched.h>
#endif

namespace dan {

CpuSpread::CpuSpread() {
#ifdef __linux__
  Cpu = sched_getcpu();
#endif
}

void CpuSpread::moveHelper(unsigned Helper) const {
#ifdef __linux__
  if (Cpu < 0 || Helper == 0 || sched_getcpu() != Cpu)
    return;
  cpu_set_t Allowed;
  // (Fails on a machine of more CPUs than a cpu_set_t holds: left alone.)
  if (sched_getaffinity(0, sizeof Allowed, &Allowed) != 0)
    return;
  int Others = CPU_COUNT(&Allowed) - (CPU_ISSET(Cpu, &Allowed) ? 1 : 0);
  if (Others < 1)
    return;
  int Wanted = static_cast<int>((Helper - 1) % Others) + 1;
  int Target = -1;
  for (int Step = 1, Seen = 0; Step < CPU_SETSIZE && Target < 0; ++Step) {
    int C = (Cpu + Step) % CPU_SETSIZE;
    if (CPU_ISSET(C, &Allowed) && ++Seen == Wanted)
      Target = C;
  }
  if (Target < 0)
    return;
  // Allowed on the target alone, the thread moves there at once; allowed
  // its former CPUs again, it stays until the scheduler has a reason to
  // move it.
  cpu_set_t Only;
  CPU_ZERO(&Only);
  CPU_SET(Target, &Only);
  if (sched_setaffinity(0, sizeof Only, &Only) == 0)
    sched_setaffinity(0, sizeof Allowed, &Allowed);
#else
  (void)Helper;
#endif
}

void CpuSpread::yieldToHelpers() const {
#ifdef __linux__
  sched_yield();
#endif
}

} // namespace dan
