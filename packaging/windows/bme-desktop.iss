; Inno Setup script of the Windows installer (UNTESTED here: the project builds and tests on Linux).
; Build on Windows, from the source checkout, after the one-folder bundle:
;   python packaging\pyinstaller\make_icons.py
;   pyinstaller --noconfirm --distpath dist-bundle --workpath build\bundle packaging\pyinstaller\bme-desktop.spec
;   iscc /DAppVersion=0.1.0 packaging\windows\bme-desktop.iss
; It installs dist-bundle\bme-desktop\ for the current user (no administrator rights), adds a Start
; menu entry for "BME Desktop.exe" (the window) and leaves bme-desktop.exe (serve, mcp, doctor…) in
; the same folder, to be named in an MCP host's configuration. The memory stays in the user's data
; folder (%LOCALAPPDATA%\bme-desktop): uninstalling removes the program only.

#ifndef AppVersion
  #define AppVersion "0.1.0"
#endif

[Setup]
AppId={{15E42A66-94F9-42F7-B62C-1FECC0757B71}
AppName=BME Desktop
AppVersion={#AppVersion}
AppPublisher=BME Desktop
DefaultDirName={localappdata}\Programs\BME Desktop
DefaultGroupName=BME Desktop
PrivilegesRequired=lowest
OutputDir=..\..\dist-bundle
OutputBaseFilename=bme-desktop-{#AppVersion}-setup
SetupIconFile=..\..\build\icons\bme-desktop.ico
UninstallDisplayIcon={app}\BME Desktop.exe
Compression=lzma2/max
SolidCompression=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
LicenseFile=..\..\dist-bundle\bme-desktop\_internal\licenses\README.txt

[Languages]
Name: "en"; MessagesFile: "compiler:Default.isl"

[Files]
Source: "..\..\dist-bundle\bme-desktop\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
Name: "{group}\BME Desktop"; Filename: "{app}\BME Desktop.exe"
Name: "{group}\Uninstall BME Desktop"; Filename: "{uninstallexe}"
Name: "{userdesktop}\BME Desktop"; Filename: "{app}\BME Desktop.exe"; Tasks: desktopicon

[Tasks]
Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; Flags: unchecked

[Run]
Filename: "{app}\BME Desktop.exe"; Description: "{cm:LaunchProgram,BME Desktop}"; Flags: nowait postinstall skipifsilent
