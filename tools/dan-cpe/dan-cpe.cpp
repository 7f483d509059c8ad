#include <cstdio>

// Placeholder until the stage lands: refuses to run rather than pretend.
int main() {
  std::fputs("dan-cpe: not implemented yet\n", stderr);
  return 2;
}
