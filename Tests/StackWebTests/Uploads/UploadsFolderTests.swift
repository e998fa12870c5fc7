import Foundation
import Testing

@testable import StackWebServer

/// Where guests' photos are kept, decided at start from the options and the folders as they are.
@Suite struct UploadsFolderTests {
    static let name = UploadSettings.defaultFolderName

    static func locate(
        _ photos: String, given: String? = nil, state: String? = nil, taking: Bool = true
    ) throws(Configuration.Failure) -> UploadsFolder {
        try UploadsFolder.locate(
            folder: given, photos: PhotoScanner.realPath(photos), state: state, taking: taking)
    }

    @Test func aWritablePhotoFolderKeepsThemInside() throws {
        let photos = PhotoScanner.realPath(try TemporaryFiles.folder())
        let state = try TemporaryFiles.folder() + "/state.db"
        #expect(
            try Self.locate(photos, state: state) == UploadsFolder(path: photos + "/" + Self.name, relative: Self.name))
        // Nothing is left of the look at whether it is writable, nor made beside the state.
        #expect(try FileManager.default.contentsOfDirectory(atPath: photos).isEmpty)
        #expect(
            !FileManager.default.fileExists(atPath: (state as NSString).deletingLastPathComponent + "/" + Self.name))
    }

    @Test func anUploadsDirInsideThePhotosIsItsSubFolder() throws {
        let photos = PhotoScanner.realPath(try TemporaryFiles.folder())
        let found = try Self.locate(photos, given: photos + "/guests/party")
        #expect(found.relative == "guests/party")
        #expect(found.mount == nil)
    }

    @Test func anUploadsDirOutsideIsMountedAsUploads() throws {
        let photos = try TemporaryFiles.folder()
        let outside = PhotoScanner.realPath(try TemporaryFiles.folder())
        let found = try Self.locate(photos, given: outside)
        #expect(
            found
                == UploadsFolder(
                    path: outside, relative: Self.name, mount: PhotoTree.Mount(name: Self.name, folder: outside)))
    }

    @Test func anUploadsDirHoldingThePhotosIsRefused() throws {
        let parent = try TemporaryFiles.folder()
        let photos = parent + "/photos"
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        #expect(throws: Configuration.Failure.self) { try Self.locate(photos, given: parent) }
        #expect(throws: Configuration.Failure.self) { try Self.locate(photos, given: photos) }
    }

    @Test func aReadOnlyPhotoFolderKeepsThemBesideTheStateAndMarksThatFolder() throws {
        try TinyDisk.mounted { photos in
            try TinyDisk.makeReadOnly(photos)
            let state = PhotoScanner.realPath(try TemporaryFiles.folder())
            let beside = state + "/" + Self.name
            let found = try Self.locate(photos, state: state + "/state.db")
            #expect(
                found
                    == UploadsFolder(
                        path: beside, relative: Self.name, mount: PhotoTree.Mount(name: Self.name, folder: beside)))
            #expect(FileManager.default.fileExists(atPath: beside + "/" + UploadsFolder.marker))
            // Not taking photos: nothing to keep, nothing refused.
            #expect(throws: Never.self) { try Self.locate(photos, taking: false) }
            #expect(throws: Configuration.Failure.self) { try Self.locate(photos) }
        }
    }
}
