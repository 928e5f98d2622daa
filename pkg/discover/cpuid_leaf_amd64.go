package discover

// cpuidLeaf executes the CPUID instruction (implemented in cpuid_amd64.s).
func cpuidLeaf(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
