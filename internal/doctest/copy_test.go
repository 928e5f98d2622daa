package doctest

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// copyRepo copies the repository's files to dst: the files git tracks and
// the new ones it does not ignore, or, without git, every file but .git,
// bin/ and a built nfd-fn; but those under the directories skip names.
// Symbolic links are copied as links (the discovery fixtures hold
// dangling ones on purpose).
func copyRepo(root, dst string, skip ...string) error {
	files, err := repoFiles(root)
	if err != nil {
		return err
	}
	for _, rel := range files {
		if underAny(rel, skip) {
			continue
		}
		src := filepath.Join(root, rel)
		info, err := os.Lstat(src)
		if errors.Is(err, fs.ErrNotExist) {
			continue // tracked, but deleted in the work tree
		}
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(src)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, to); err != nil {
				return err
			}
		case info.Mode().IsRegular():
			data, err := os.ReadFile(src)
			if err != nil {
				return err
			}
			if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
				return err
			}
		}
	}
	return nil
}

// underAny says whether the relative path rel is in one of dirs.
func underAny(rel string, dirs []string) bool {
	for _, d := range dirs {
		if strings.HasPrefix(filepath.ToSlash(rel), d+"/") {
			return true
		}
	}
	return false
}

// repoFiles lists the files to copy, relative to root.
func repoFiles(root string) ([]string, error) {
	cmd := exec.Command("git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	if out, err := cmd.Output(); err == nil {
		var files []string
		for _, f := range bytes.Split(out, []byte{0}) {
			if len(f) > 0 {
				files = append(files, filepath.FromSlash(string(f)))
			}
		}
		return files, nil
	}
	var files []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() && (d.Name() == ".git" || rel == "bin") {
			return filepath.SkipDir
		}
		if !d.IsDir() && rel != "nfd-fn" && !strings.HasSuffix(rel, ".test") {
			files = append(files, rel)
		}
		return nil
	})
	return files, err
}
