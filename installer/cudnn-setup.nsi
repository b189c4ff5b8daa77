; The Windows installer of cuDNN Setup itself: puts the two programs into Program Files, a Start-menu
; shortcut, an uninstaller and the Add/Remove Programs entry. Built by the CMake target
; windows_installer (installer/CMakeLists.txt), which passes:
;   -DVERSION=x.y.z  -DFILE_VERSION=x.y.z.0  -DWIZARD_EXE=...  -DCUDNNCTL_EXE=...  -DOUTFILE=...
; The programs are static MinGW builds (Qt, zlib, translations and the compatibility database
; inside them) that import only Windows' own DLLs, so nothing else goes beside them.
; Silent: `setup.exe /S` installs, `uninstall.exe /S` removes (both need administrator rights).
; The language follows Windows' display language: Simplified Chinese there, English elsewhere.

Unicode true
; x64 stubs: the installer is PE32+, so it also runs where no 32-bit subsystem exists (a 64-bit-only
; Wine prefix); the programs are x64 anyway.
Target amd64-unicode
RequestExecutionLevel admin
ManifestDPIAware true
SetCompressor /SOLID lzma

!ifndef VERSION | FILE_VERSION | WIZARD_EXE | CUDNNCTL_EXE | OUTFILE
  !error "Build through the CMake target windows_installer, which passes VERSION, FILE_VERSION, WIZARD_EXE, CUDNNCTL_EXE and OUTFILE"
!endif

!define PRODUCT "cuDNN Setup"
!define PUBLISHER "cuDNN Setup"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\${PRODUCT}"
!define UNINSTALLER "uninstall.exe"

Name "${PRODUCT}"
OutFile "${OUTFILE}"
; Only Program Files, which only administrators can change: the wizard hands cudnnctl.exe from this
; folder to UAC, so a folder other users can write would let them swap the program that runs
; elevated. Hence no directory page, and a /D= elsewhere is refused (.onInit).
InstallDir "$PROGRAMFILES64\${PRODUCT}"
BrandingText "${PRODUCT} ${VERSION}"

VIProductVersion "${FILE_VERSION}"
VIFileVersion "${FILE_VERSION}"
VIAddVersionKey /LANG=0 "ProductName" "${PRODUCT}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileDescription" "${PRODUCT} ${VERSION} installer"
VIAddVersionKey /LANG=0 "CompanyName" "${PUBLISHER}"
VIAddVersionKey /LANG=0 "LegalCopyright" "${PUBLISHER}"

!include "MUI2.nsh"
!include "FileFunc.nsh"

!define MUI_ABORTWARNING
!define MUI_UNABORTWARNING

!define MUI_WELCOMEPAGE_TEXT "$(WelcomeText)"
!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_INSTFILES
; No "Run cuDNN Setup" box: started from here the wizard would run elevated, possibly as another
; user, and change that user's environment instead of the one who asked.
!insertmacro MUI_PAGE_FINISH

!define MUI_UNCONFIRMPAGE_TEXT_TOP "$(UninstallText)"
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES

!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "SimpChinese"

LangString WelcomeText ${LANG_ENGLISH} "Setup will install $(^NameDA) ${VERSION}: the cuDNN Setup wizard and its command-line tool cudnnctl, which install, verify and repair NVIDIA cuDNN.$\r$\n$\r$\n$_CLICK"
LangString WelcomeText ${LANG_SIMPCHINESE} "安装程序将安装 cuDNN 安装向导（cuDNN Setup，版本 ${VERSION}）：这个向导及其命令行工具 cudnnctl 用于安装、验证和修复 NVIDIA cuDNN。$\r$\n$\r$\n$_CLICK"
LangString UninstallText ${LANG_ENGLISH} "$(^NameDA) will be removed from the folder below. The cuDNN it installed stays in place: if you no longer need it, remove it first in cuDNN Setup (or with cudnnctl uninstall). $_CLICK"
LangString UninstallText ${LANG_SIMPCHINESE} "将从下面的文件夹中卸载 cuDNN 安装向导（cuDNN Setup）。通过它安装的 cuDNN 会保留；如果不再需要，请先在 cuDNN 安装向导中（或用 cudnnctl uninstall）将其卸载。$_CLICK"
LangString OnlyProgramFiles ${LANG_ENGLISH} "$(^NameDA) installs only into $PROGRAMFILES64\${PRODUCT}, which only administrators can change; it does not install into $INSTDIR."
LangString OnlyProgramFiles ${LANG_SIMPCHINESE} "cuDNN 安装向导（cuDNN Setup）只能安装到只有管理员才能修改的 $PROGRAMFILES64\${PRODUCT}，不会安装到 $INSTDIR。"
LangString ShortcutDescription ${LANG_ENGLISH} "Install, verify and repair NVIDIA cuDNN"
LangString ShortcutDescription ${LANG_SIMPCHINESE} "安装、验证和修复 NVIDIA cuDNN"

Function .onInit
    ; 2: the exit code of a silent run that was refused (the parameters were wrong).
    StrCmp $INSTDIR "$PROGRAMFILES64\${PRODUCT}" +4
        MessageBox MB_ICONSTOP|MB_OK "$(OnlyProgramFiles)" /SD IDOK
        SetErrorLevel 2
        Abort
FunctionEnd

Section "cuDNN Setup" SecMain
    SectionIn RO
    SetRegView 64
    SetShellVarContext all
    SetOutPath "$INSTDIR"
    File "/oname=cudnn-setup.exe" "${WIZARD_EXE}"
    File "/oname=cudnnctl.exe" "${CUDNNCTL_EXE}"
    WriteUninstaller "$INSTDIR\${UNINSTALLER}"

    CreateShortCut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\cudnn-setup.exe" "" "$INSTDIR\cudnn-setup.exe" 0 \
        SW_SHOWNORMAL "" "$(ShortcutDescription)"

    WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayName" "${PRODUCT}"
    WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
    WriteRegStr HKLM "${UNINSTALL_KEY}" "Publisher" "${PUBLISHER}"
    WriteRegStr HKLM "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
    WriteRegStr HKLM "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\cudnn-setup.exe,0"
    WriteRegStr HKLM "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\${UNINSTALLER}"'
    WriteRegStr HKLM "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\${UNINSTALLER}" /S'
    WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoModify" 1
    WriteRegDWORD HKLM "${UNINSTALL_KEY}" "NoRepair" 1
    ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
    WriteRegDWORD HKLM "${UNINSTALL_KEY}" "EstimatedSize" $0 ; in KiB
SectionEnd

Section "Uninstall"
    SetRegView 64
    SetShellVarContext all
    Delete "$SMPROGRAMS\${PRODUCT}.lnk"
    Delete "$INSTDIR\cudnn-setup.exe"
    Delete "$INSTDIR\cudnnctl.exe"
    Delete "$INSTDIR\${UNINSTALLER}"
    ; Not /r: whatever someone else put into the folder stays, and with it the folder.
    RMDir "$INSTDIR"
    DeleteRegKey HKLM "${UNINSTALL_KEY}"
SectionEnd
