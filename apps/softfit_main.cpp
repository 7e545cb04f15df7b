// softfit command-line entry point.
#include <iostream>
int main() { std::cout << "softfit\n"; return 0; }
