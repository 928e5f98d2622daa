//go:build !amd64

package discover

// cpuidLeaf returns zeros: raw CPUID leaves exist only on x86.
func cpuidLeaf(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32) {
	return 0, 0, 0, 0
}
